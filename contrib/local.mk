# contrib: setup, local cluster, examples, systemd units
