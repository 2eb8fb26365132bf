"""seeds: see docs/layout.md."""
