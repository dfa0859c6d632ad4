# unit tests: estimator
