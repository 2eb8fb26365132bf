"""hochberg: see docs/layout.md."""
