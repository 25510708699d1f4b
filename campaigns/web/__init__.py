"""Server-rendered web pages: sign in, my games, a new game, the game and umpire pages."""
