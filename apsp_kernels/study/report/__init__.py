"""report: see docs/layout.md."""
