"""Published analyses: one script per question, each writing tables and figures under reports/."""
