module review17/embmutex

go 1.26
