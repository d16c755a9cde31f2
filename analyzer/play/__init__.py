"""Playing: mine placement, the game engine, players and Monte Carlo simulation."""
