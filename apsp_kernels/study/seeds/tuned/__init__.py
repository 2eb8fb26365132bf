"""tuned: see docs/layout.md."""
