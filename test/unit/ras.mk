# unit tests: ras and reverse
