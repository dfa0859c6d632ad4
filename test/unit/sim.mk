# unit tests and reduced reproductions: simulator
