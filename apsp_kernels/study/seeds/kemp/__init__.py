"""kemp: see docs/layout.md."""
