# realtime policy (admission control) in the core
