# sdeadline
