// A reader fills a buffer that another goroutine is still reading, and a
// hash reads a buffer that another goroutine is filling (TestRaceIssue5654
// and TestRaceIssue5567 of the race detector's suite): the standard
// library's Read writes p[:n], and a hash's Write reads all of p.
package main

import (
	"bytes"
	"fmt"
	"hash/crc32"
)

func main() {
	data := bytes.NewBufferString("0123456789abcdef")
	buf := make([]byte, 8)
	ch := make(chan bool)
	go func() {
		fmt.Println(len(string(buf[:4]))) // want race with the Read below (the length: the bytes are the schedule's)
		ch <- true
	}()
	n, _ := data.Read(buf) // want race with the read above
	<-ch

	b := make([]byte, 8)
	h := crc32.NewIEEE()
	go func() {
		b[3] = 1 // want race with the Write below
		ch <- true
	}()
	h.Write(b) // want race with the write above
	<-ch
	fmt.Println(n)
}
