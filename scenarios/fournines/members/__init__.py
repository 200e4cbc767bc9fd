"""Member processes as the runner drives them: started, signalled, followed, talked to; their
command lines and the jars they run."""
