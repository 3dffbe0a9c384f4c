module review19/wpuser

go 1.26

require github.com/gammazero/workerpool v1.3.0

require github.com/gammazero/deque v1.2.2 // indirect
