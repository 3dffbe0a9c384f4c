module review19/errgroupctx

go 1.26

require golang.org/x/sync v0.11.0
