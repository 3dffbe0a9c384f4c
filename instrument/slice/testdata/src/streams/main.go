// Package main points os.Stdout at a file, prints to it, and reads the
// file back: the print is not output only, it must stay, and the sliced
// program exits with the number it read, as the original does.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	f, err := os.CreateTemp("", "streams")
	if err != nil {
		os.Exit(1)
	}
	saved := os.Stdout
	os.Stdout = f
	fmt.Println(3)
	os.Stdout = saved
	f.Close()
	b, _ := os.ReadFile(f.Name())
	os.Remove(f.Name()) // not deferred: os.Exit runs no deferred call
	k, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	y := 2.5 * float64(k)
	_ = y
	os.Exit(k)
}
