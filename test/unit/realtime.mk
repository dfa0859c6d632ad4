# unit tests: realtime
