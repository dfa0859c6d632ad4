# smapreduce
