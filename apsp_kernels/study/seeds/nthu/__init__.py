"""nthu: see docs/layout.md."""
