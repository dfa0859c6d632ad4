# documentation and man pages
