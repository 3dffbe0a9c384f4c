module review19/loopvars

go 1.26
