# ras and reverse policies in the core
