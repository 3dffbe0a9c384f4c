//go:build !linux

package main

import "os"

// maxRSS is unknown off Linux (ru_maxrss has other units elsewhere).
func maxRSS(ps *os.ProcessState) int64 { return 0 }
