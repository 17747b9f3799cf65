"""The App's own screens, held on a stack: the home menu, a game's menu and set-up, the game and
its menu, tools."""
