"""The version string, in a module of its own: manifests, record sources and the package metadata
(pyproject.toml reads it) need it without importing the package root and what that loads."""
__version__ = "0.1.0"
