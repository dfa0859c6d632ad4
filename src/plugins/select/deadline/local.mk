# SelectType=select/deadline
