"""show: see docs/layout.md."""
