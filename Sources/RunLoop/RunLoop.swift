// RunLoop: being written (issue 2).
