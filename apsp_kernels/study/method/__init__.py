"""method: see docs/layout.md."""
