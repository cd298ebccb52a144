/* cardsim report page: the "Your hand" panels, the grids' details on tap, the table filters.
 * Plain JavaScript, no network (docs/report-page.md).  The chart cells and their conditions come
 * from the JSON block #cardsim-data (analyses/page.py); a hand is in a cell when every feature
 * range of the cell's condition holds, each feature computed as the dealer computes it:
 * sum(weight * popcount(h & (h >> shift) & mask)) over the feature's terms (cardsim.deal), a term
 * whose shift is 64 or more being a kind of cardsim/holding.py (holdingValue). */
(function () {
  "use strict";
  var node = document.getElementById("cardsim-data");
  var DATA = node ? JSON.parse(node.textContent) : {};
  var SYMBOLS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                 "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"};
  var SUIT_ORDER = ["S", "H", "D", "C"];
  var SUIT_SIGN = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};

  // ------------------------------------------------------------ features
  function popcount(x) {
    var c = 0;
    while (x) { x &= x - 1n; c++; }
    return c;
  }
  Object.keys(DATA).forEach(function (g) {
    var d = DATA[g], f = {};
    Object.keys(d.features).forEach(function (name) {
      f[name] = d.features[name].map(function (t) { return [BigInt(t[0]), BigInt(t[1]), t[2]]; });
    });
    d._terms = f;
  });
  /* A term whose shift is 64 or more is a kind of cardsim/holding.py (stopper, quick tricks in
   * halves, losers; balanced, semi-balanced, longest, shortest, shape), the same definitions. */
  var STOPPER = 64n, QUICK_TRICKS = 65n, LOSERS = 66n, BALANCED = 67n, SEMI_BALANCED = 68n, LONGEST = 69n,
      SHORTEST = 70n, SHAPE = 71n;
  function holdingValue(h, mask, kind) {
    if (kind >= BALANCED) {
      var x = h & mask, l = [0, 1, 2, 3].map(function (s) { return popcount((x >> BigInt(16 * s)) & 0xFFFFn); });
      l.sort(function (p, q) { return q - p; });
      var shape = l.join("-");
      if (kind === LONGEST) return l[0];
      if (kind === SHORTEST) return l[3];
      if (kind === SHAPE) return l[0] * 1000 + l[1] * 100 + l[2] * 10 + l[3];
      var balanced = ["4-3-3-3", "4-4-3-2", "5-3-3-2"].indexOf(shape) >= 0;
      if (kind === BALANCED) return balanced ? 1 : 0;
      return balanced || shape === "5-4-2-2" || shape === "6-3-2-2" ? 1 : 0;
    }
    var y = h & mask, n = popcount(y), ace = mask & ~(mask >> 1n);
    var a = (y & ace) !== 0n, k = (y & (ace >> 1n)) !== 0n, q = (y & (ace >> 2n)) !== 0n, j = (y & (ace >> 3n)) !== 0n;
    if (kind === STOPPER) return a || (k && n >= 2) || (q && n >= 3) || (j && n >= 4) ? 1 : 0;
    if (kind === QUICK_TRICKS) return a ? (k ? 4 : q ? 3 : 2) : k ? (q ? 2 : n >= 2 ? 1 : 0) : 0;
    return (n >= 1 && !a ? 1 : 0) + (n >= 2 && !k ? 1 : 0) + (n >= 3 && !q ? 1 : 0);  // LOSERS
  }
  function featureValues(game, bits) {
    var terms = DATA[game]._terms, out = {};
    Object.keys(terms).forEach(function (name) {
      var v = 0;
      terms[name].forEach(function (t) {
        v += t[2] * (t[1] >= 64n ? holdingValue(bits, t[0], t[1]) : popcount(bits & (bits >> t[1]) & t[0]));
      });
      out[name] = v;
    });
    return out;
  }
  function inClass(values, bits, cond) {
    for (var i = 0; i < cond.ranges.length; i++) {
      var r = cond.ranges[i], v = values[r[0]];
      if ((r[1] !== null && v < r[1]) || (r[2] !== null && v > r[2])) return false;
    }
    for (i = 0; i < cond.req.length; i++) if (!((bits >> BigInt(cond.req[i])) & 1n)) return false;
    for (i = 0; i < cond.exc.length; i++) if ((bits >> BigInt(cond.exc[i])) & 1n) return false;
    return true;
  }

  // ------------------------------------------------------------ hands
  /* The project's hand syntax (docs/conditions.md): suit groups S:AKT86, D:- (a void), single
   * cards AS 10D, jokers HJ LJ, suit symbols, spaces or commas between. */
  function parseHand(game, text) {
    var cards = DATA[game].cards, out = [], errors = [], seen = {}, voids = [];
    var t = String(text || "").replace(/[\u2660-\u2667]/g, function (s) { return SYMBOLS[s] || s; })
      .replace(/[\ufe0f\ufe0e]/g, "").replace(/([SHDCshdc])\s*:\s*/g, "$1:");
    function add(token, shown) {
      token = token.toUpperCase().replace(/^10/, "T");
      if (!(token in cards)) { errors.push("unknown card '" + shown + "'"); return; }
      if (seen[token]) { errors.push(shown + " is given twice"); return; }
      seen[token] = true;
      out.push(token);
    }
    t.split(/[\s,]+/).forEach(function (tok) {
      if (!tok) return;
      var m = /^([SHDC]):(.*)$/i.exec(tok);
      if (m) {
        var suit = m[1].toUpperCase(), ranks = m[2];
        if (ranks === "-") { voids.push(suit); return; }
        if (!/^(10|[2-9TJQKA])+$/i.test(ranks)) { errors.push("bad ranks '" + tok + "'"); return; }
        (ranks.match(/10|[2-9TJQKA]/gi) || []).forEach(function (r) { add(r + suit, r + suit); });
        return;
      }
      if (/^(10|[2-9TJQKA])[SHDC]$/i.test(tok) || /^[HL]J$/i.test(tok)) { add(tok, tok); return; }
      errors.push("cannot read '" + tok + "'");
    });
    voids.forEach(function (s) {
      if (out.some(function (c) { return c.length === 2 && c[1] === s && !/^[HL]J$/.test(c); }))
        errors.push(s + " is written void but has cards");
    });
    var bits = 0n;
    out.forEach(function (c) { bits |= 1n << BigInt(cards[c]); });
    return {cards: out, bits: bits, errors: errors};
  }
  /* A hand in the hand syntax, suits S H D C, high cards first (jokers first). */
  function handText(game, tokens) {
    var cards = DATA[game].cards, groups = {}, jokers = [];
    tokens.slice().sort(function (a, b) { return cards[b] - cards[a]; }).forEach(function (c) {
      if (/^[HL]J$/.test(c)) jokers.push(c);
      else (groups[c[1]] = groups[c[1]] || []).push(c[0]);
    });
    var parts = jokers.slice();
    SUIT_ORDER.forEach(function (s) { if (groups[s]) parts.push(s + ":" + groups[s].join("")); });
    return parts.join(" ");
  }

  // ------------------------------------------------------------ classification
  /* 501: the report's cell of that position nearest the state itself (g501_hands.g501_cell):
   * least |d own| + |d lead| (lead = the lower opponent minus own), ties to the lower own, then lead. */
  function cell501(own, opponents, position) {
    var d = DATA["501"], lead = Math.min.apply(null, opponents) - own;
    var best = null, bestKey = null;
    d.cells.forEach(function (c) {
      if (c.position !== position) return;
      var k = [Math.abs(c.own - own) + Math.abs(c.lead - lead), c.own, c.lead];
      if (!bestKey || k[0] < bestKey[0] || (k[0] === bestKey[0] && (k[1] < bestKey[1] ||
          (k[1] === bestKey[1] && k[2] < bestKey[2])))) { best = c; bestKey = k; }
    });
    return best;
  }
  /* The keys of the cells the hand falls in, in table order (as hand_classes.classify). */
  function classify(game, hand, ctx) {
    var p = typeof hand === "string" ? parseHand(game, hand) : hand;
    var d = DATA[game], keys = [];
    if (game === "501") {
      var c = cell501(Number(ctx.own), ctx.opponents.map(Number), Number(ctx.position));
      return c ? [c.key] : [];
    }
    var values = featureValues(game, p.bits);
    d.cells.forEach(function (c) {
      var cond = null;
      if (game === "vint") { if (c.ctx === ctx.chart + "|" + ctx.after) cond = c.cond; }
      else if (c.scoring === ctx.scoring) cond = c.conds[ctx.trump] || null;
      if (cond && inClass(values, p.bits, cond) && keys.indexOf(c.key) < 0) keys.push(c.key);
    });
    return keys;
  }

  // ------------------------------------------------------------ words
  function fmt(v, digits, sign) {
    if (v === null || v === undefined) return "";
    var s = Number(v).toFixed(digits);
    return (sign && v >= 0 ? "+" : "") + s;
  }
  function pct(v) { return v === null || v === undefined ? "" : (100 * v).toFixed(1) + "%"; }
  function cellOf(game, key) {
    var cs = DATA[game].cells;
    for (var i = 0; i < cs.length; i++) if (cs[i].key === key) return cs[i];
    return null;
  }
  function bestText(game, c, trump) {
    if (game === "500") return c.best + (c.denom === "NT" ? "NT" : trump || c.denom);
    if (game === "501" && c.best !== "look" && c.levels_as_good) return c.best + " (levels as good: " + c.levels_as_good + ")";
    return c.best;
  }
  function holdsText(c, digits) {
    if (c.holds === true) return "holds" + (c.gain_min !== null ? " (gain " + fmt(c.gain_min, digits, true) + " to " +
      fmt(c.gain_max, digits, true) + " across the player profiles)" : "");
    if (c.holds === false) return "depends on the players \u2020: clearly worse under " + (c.flips || "some profile");
    return "not replayed under other players";
  }
  /* The command's units (an option with its value, e.g. "--seat 0"), in order: joined by spaces
   * they are the command; the page shows each unbroken, so a line breaks only between them. */
  function commandFor(game, d, cell, ctx, handStr) {
    var parts = ["cardsim", "evaluate", game];
    var hand = handStr ? ' --hand "' + handStr + '"' : "";
    if (game === "vint") {
      var c = ctx;
      parts.push("--seat " + c.seat, "--dealer " + c.dealer);
      if (c.after && c.after !== "-") parts.push('--auction "' + c.after + '"');
      if (hand) parts.push(hand.trim());
      (cell ? cell.options : ["auto"]).forEach(function (o) { parts.push("--option " + o); });
    } else if (game === "500") {
      parts.push("--seat 0");
      if (hand) parts.push(hand.trim());
      [6, 7, 8, 9, 10].forEach(function (l) { parts.push("--option =" + l + ctx.trump); });
      parts.push("--rule scoring=" + ctx.scoring);
    } else {
      parts.push("--seat 0", "--seats 3", "--dealer " + ((2 - ctx.position + 3) % 3),
                 "--before " + [ctx.own, ctx.opponents[0], ctx.opponents[1]].join(","), "--outcome game");
      if (hand) parts.push(hand.trim());
      ["look"].concat(d.levels.map(function (l) { return "blind:" + l; }))
        .forEach(function (o) { parts.push("--option " + o); });
    }
    parts.push("--until-clear", "--max-deals " + d.deals, "--seed 1");
    return parts;
  }
  function setCommand(panel, game, parts) {
    var el = panel.querySelector('[data-testid="command-' + game + '"]');
    if (!el) return;
    el.textContent = "";
    parts.forEach(function (u, i) {
      if (i) el.appendChild(document.createTextNode(" "));  // the only places a line may break
      var span = document.createElement("span");
      span.className = "arg";
      span.textContent = u;
      el.appendChild(span);
    });
  }

  // ------------------------------------------------------------ the panels
  function setField(panel, game, name, text, value) {
    var el = panel.querySelector('[data-testid="' + name + "-" + game + '"]');
    if (!el) return;
    el.textContent = text;
    if (value === undefined || value === null) el.removeAttribute("data-value");
    else el.setAttribute("data-value", String(value));
  }
  function context(panel, game) {
    var q = function (n) { return panel.querySelector('[data-testid="' + n + "-" + game + '"]'); };
    if (game === "vint") {
      var id = q("context").value, cs = DATA.vint.contexts;
      for (var i = 0; i < cs.length; i++) if (cs[i].id === id) return cs[i];
      return cs[0];
    }
    if (game === "500") return {trump: q("context").value, scoring: panel.querySelector('[data-testid="scoring-500"]').value};
    var num = function (n) { var v = parseInt(q(n).value, 10); return isNaN(v) ? 0 : v; };
    return {own: num("own"), opponents: [num("left"), num("right")], position: parseInt(q("position").value, 10)};
  }
  function describeHand(game, values) {
    if (game === "vint") return values.hcp + " points, " + SUIT_ORDER.map(function (s) { return values[s]; }).join("-") + " (\u2660\u2665\u2666\u2663)";
    if (game === "501") return values.points + " card points";
    return "";
  }
  function update(panel) {
    var game = panel.getAttribute("data-game"), d = DATA[game];
    var input = panel.querySelector('[data-testid="hand-' + game + '"]');
    var p = parseHand(game, input.value), ctx = context(panel, game);
    // too many cards: no answer and no command (evaluate refuses it: "seat 0 is given 14 cards; …")
    if (!p.errors.length && p.cards.length > d.hand_size)
      p.errors.push(p.cards.length + " cards, but a hand holds " + d.hand_size);
    var grid = panel.querySelector('[data-testid="cards-' + game + '"]');
    Array.prototype.forEach.call(grid.querySelectorAll("button"), function (b) {
      var on = p.cards.indexOf(b.getAttribute("data-card")) >= 0;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var fields = ["class", "best", "runner-up", "gap", "made", "n", "clear", "holds", "others"];
    fields.forEach(function (f) { setField(panel, game, f, ""); });
    var full = p.cards.length === d.hand_size && !p.errors.length;
    var handStr = p.errors.length || !p.cards.length ? "" : handText(game, p.cards);
    var status, keys = [];
    // 501: a game in play has every score above 0 (at 0 or below it is over, docs/RULES.md 1.8)
    var badScores = game === "501" && [ctx.own].concat(ctx.opponents).some(function (v) { return !(v > 0); });
    if (p.errors.length) status = "Cannot read the hand: " + p.errors.join("; ") + ".";
    else if (game !== "501" && !full)
      status = p.cards.length ? p.cards.length + " of " + d.hand_size + " cards: give the whole hand." : "Type or tap your cards.";
    if ((!status || game === "501") && !badScores) {
      keys = classify(game, p, ctx);
      if (game === "500") {  // the chosen suit's own row first (hearts stand for every suit)
        keys.sort(function (a, b) { return (cellOf(game, b).denom === ctx.trump) - (cellOf(game, a).denom === ctx.trump); });
      }
    }
    panel.setAttribute("data-keys", keys.join(";"));
    var cell = keys.length ? cellOf(game, keys[0]) : null;
    if (!status) {
      var values = featureValues(game, p.bits), desc = describeHand(game, values);
      if (game === "500") {
        desc = ctx.trump === "NT" ? values.jokers + " jokers, " + values.aces + " aces"
          : values["trumps_" + ctx.trump] + " trumps, " + values["top_" + ctx.trump] + " of the top five, " +
            values["side_aces_" + ctx.trump] + " side aces";
      }
      status = cell ? "Your hand: " + desc + "." : "Your hand (" + desc + ") is outside every class this chart studied; ask about it with the command below.";
    }
    if (badScores) status = "Every score must be above 0: at 0 or below the game is over.";
    else if (game === "501") {
      status = (status && (p.errors.length || full) ? status + " " : "") +
        "The chart's first call is made before you look at your cards, so it does not depend on them; " +
        (p.cards.length && !p.errors.length ? "the command below asks about this very hand." : "add your cards to ask about your very hand.");
    }
    panel.setAttribute("data-state", cell ? "answer" : full ? "outside" : "incomplete");
    setField(panel, game, "status", status);
    if (cell) {
      var unit = game === "501" ? " pp" : game === "500" ? " points" : " score points", dg = game === "501" ? 1 : 0;
      var exact = game === "501" && ctx.own === cell.own && ctx.opponents[0] === cell.opp &&
        ctx.opponents[1] === cell.opp;
      setField(panel, game, "class", game === "501"
        ? (exact ? "" : "nearest charted situation: ") + "own " + cell.own + ", both opponents at " + cell.opp + " (lead " + fmt(cell.lead, 0, true) + "), position " + cell.position
        : cell.label + (game === "500" ? " (" + (cell.denom === "NT" ? "no trumps" : cell.denom === ctx.trump ? "this suit" : "hearts, standing for every suit") + ", " + cell.scoring + ")" : ""), cell.key);
      setField(panel, game, "best", bestText(game, cell, ctx.trump), cell.best);
      setField(panel, game, "runner-up", cell.runner_up === null ? "none" : String(cell.runner_up) +
        (game === "500" ? (cell.denom === "NT" ? "NT" : ctx.trump) : ""), cell.runner_up);
      setField(panel, game, "gap", cell.gap === null ? "" : fmt(cell.gap, dg, true) + unit + " (95% interval " +
        fmt(cell.gap_lo, dg, true) + " to " + fmt(cell.gap_hi, dg, true) + ")", cell.gap);
      setField(panel, game, "made", cell.made === null ? "\u2014" : pct(cell.made) +
        (cell.made_lo !== null && cell.made_lo !== undefined ? " (" + pct(cell.made_lo) + " to " + pct(cell.made_hi) + ")" : ""), cell.made);
      setField(panel, game, "n", cell.n === null ? "" : cell.n.toLocaleString("en"), cell.n);
      setField(panel, game, "clear", game === "501" ? cell.verdict : cell.clear ? "yes: the gap is clear" :
        "no: the gap's interval is not clearly above 0", game === "501" ? cell.verdict : cell.clear);
      setField(panel, game, "holds", holdsText(cell, dg), cell.holds === null ? "" : cell.holds);
      if (keys.length > 1) setField(panel, game, "others", "Also in: " + keys.slice(1).map(function (k) {
        var c = cellOf(game, k); return (c.label || k) + " (best " + bestText(game, c, ctx.trump) + ")"; }).join("; "));
    }
    var cmd = (p.errors.length && game !== "501") || (!p.cards.length && game !== "501") || badScores ? [] :
      commandFor(game, d, game === "vint" ? cell : null, ctx, handStr);
    setCommand(panel, game, cmd);
  }
  function buildGrid(panel, game) {
    var grid = panel.querySelector('[data-testid="cards-' + game + '"]'), cards = DATA[game].cards;
    var input = panel.querySelector('[data-testid="hand-' + game + '"]');
    var bySuit = {};
    Object.keys(cards).sort(function (a, b) { return cards[b] - cards[a]; }).forEach(function (c) {
      var s = /^[HL]J$/.test(c) ? "J" : c[1];
      (bySuit[s] = bySuit[s] || []).push(c);
    });
    ["J"].concat(SUIT_ORDER).forEach(function (s) {
      if (!bySuit[s]) return;
      var row = document.createElement("div");
      row.className = "cardrow suit-" + s;
      bySuit[s].forEach(function (c) {
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("data-card", c);
        b.setAttribute("data-testid", "card-" + game + "-" + c);
        b.setAttribute("aria-pressed", "false");
        b.textContent = /^[HL]J$/.test(c) ? c : (c[0] === "T" ? "10" : c[0]) + SUIT_SIGN[c[1]];
        b.addEventListener("click", function () {
          var p = parseHand(game, input.value);
          var cur = p.errors.length ? [] : p.cards;
          var i = cur.indexOf(c);
          if (i >= 0) cur.splice(i, 1); else cur.push(c);
          input.value = handText(game, cur);
          update(panel);
        });
        row.appendChild(b);
      });
      grid.appendChild(row);
    });
  }
  function setupPanel(panel) {
    var game = panel.getAttribute("data-game");
    if (!DATA[game]) return;
    buildGrid(panel, game);
    Array.prototype.forEach.call(panel.querySelectorAll("input, select"), function (el) {
      el.addEventListener("input", function () { update(panel); });
      el.addEventListener("change", function () { update(panel); });
    });
    var copy = panel.querySelector('[data-testid="copy-' + game + '"]');
    copy.addEventListener("click", function () {
      var code = panel.querySelector('[data-testid="command-' + game + '"]'), text = code.textContent;
      var select = function () {  // where the clipboard is not allowed, select the text to copy by hand
        var r = document.createRange();
        r.selectNodeContents(code);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(r);
      };
      if (!text) return;
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () {
        copy.textContent = "Copied"; setTimeout(function () { copy.textContent = "Copy"; }, 1500); }, select);
      else select();
    });
    update(panel);
  }

  // ------------------------------------------------------------ grids and tables
  function setupGrids() {
    Array.prototype.forEach.call(document.querySelectorAll("div.cellgrid"), function (t) {
      var box = document.createElement("p");
      box.className = "celldetail";
      box.setAttribute("data-testid", "detail-" + t.getAttribute("data-testid"));
      box.setAttribute("aria-live", "polite");
      t.parentNode.insertBefore(box, t.nextSibling);
      var show = function (e) {
        var cell = e.target.closest ? e.target.closest("[data-detail]") : null;
        if (cell) {
          box.textContent = cell.getAttribute("data-detail");
          Array.prototype.forEach.call(t.querySelectorAll(".picked"), function (x) { x.classList.remove("picked"); });
          cell.classList.add("picked");
        }
      };
      t.addEventListener("click", show);
      t.addEventListener("mouseover", show);
      t.addEventListener("focusin", show);
    });
  }
  var FILTER_ROWS = 12;
  /* The filter box's hint, with examples from the table's own first row: its first two cells
   * that are words or ranges rather than plain numbers, dashes or flags ("H 8", "19-21", "quebec"). */
  function filterHint(t) {
    var ex = [];
    Array.prototype.forEach.call(t.tBodies[0].rows[0].cells, function (c) {
      var v = c.textContent.trim();
      if (v && ex.length < 2 && v.length <= 16 && !/^[-+]?[\d.,]+%?$/.test(v) && !/^(-|\u2014|true|false|nan)$/i.test(v) &&
          ex.indexOf(v) < 0) ex.push(v);
    });
    return "Type to keep matching rows" + (ex.length ? ", e.g. " + ex.map(function (v) {
      return "\u201c" + v + "\u201d"; }).join(" or ") : "") + "\u2026";
  }
  function setupFilters() {
    var n = 0;
    Array.prototype.forEach.call(document.querySelectorAll("table"), function (t) {
      // the short "In detail" tables are read whole (and keep the big tables' filter numbers)
      if (t.classList.contains("detail-table") || !t.tBodies.length || t.tBodies[0].rows.length < FILTER_ROWS) return;
      var box = document.createElement("input");
      box.type = "search";
      box.className = "tablefilter";
      box.placeholder = filterHint(t);
      box.setAttribute("aria-label", "filter the table's rows");
      box.setAttribute("data-testid", "filter-" + (n++));
      var count = document.createElement("span");
      count.className = "filtercount";
      box.addEventListener("input", function () {
        var words = box.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
        Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
          var text = r.textContent.toLowerCase(), cells = Array.prototype.map.call(r.cells, function (c) {
            return c.textContent.trim().toLowerCase(); });
          var ok = words.every(function (w) { return cells.indexOf(w) >= 0 || text.indexOf(w) >= 0; });
          r.style.display = ok ? "" : "none";
          if (ok) shown++;
        });
        count.textContent = words.length ? shown + " of " + t.tBodies[0].rows.length + " rows" : "";
      });
      var wrap = document.createElement("div");
      wrap.className = "filterbar";
      wrap.appendChild(box);
      wrap.appendChild(count);
      t.parentNode.insertBefore(wrap, t);
    });
  }

  // a line under the title leading to the panels (they work only with the script, so it makes the line)
  var panels = document.querySelectorAll("section.yourhand"), h1 = document.querySelector("h1");
  if (panels.length && h1) {
    var nav = document.createElement("nav");
    nav.className = "yourhand-nav";
    nav.setAttribute("data-testid", "yourhand-nav");
    nav.appendChild(document.createTextNode("Find the answer for your hand: "));
    Array.prototype.forEach.call(panels, function (p, i) {
      var a = document.createElement("a");
      a.href = "#" + p.id;
      a.textContent = p.querySelector("h3").textContent.replace(/^Your hand \((.*)\)$/, "$1");
      if (i) nav.appendChild(document.createTextNode(" \u00b7 "));
      nav.appendChild(a);
    });
    h1.parentNode.insertBefore(nav, h1.nextSibling);
  }
  document.documentElement.classList.add("js");  // shows the panels' fields (hidden without a script)
  window.cardsimPage = {parseHand: parseHand, classify: classify, featureValues: featureValues,
                        handText: handText, data: DATA};
  Array.prototype.forEach.call(document.querySelectorAll("section.yourhand"), setupPanel);
  setupGrids();
  setupFilters();
})();
