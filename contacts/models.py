"""Models arrive with their issue; the app is installed now so its migrations have a home."""
