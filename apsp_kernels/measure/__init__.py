"""measure: see docs/layout.md."""
