package main

import (
	"os"
	"syscall"
)

// maxRSS returns the peak resident set size of a finished process in bytes
// (Linux reports ru_maxrss in kilobytes).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
