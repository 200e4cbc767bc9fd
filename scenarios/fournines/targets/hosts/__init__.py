"""TARGET=hosts: the remote cluster path (infra/ansible over SSH) on emulated hosts on this machine."""
