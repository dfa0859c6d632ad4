# SchedulerType=sched/deadline
