// Readers' and writers' buffers used without a race: a Read writes only
// the bytes it returns (a goroutine may write past them), a buffer read
// into is handed over a channel before it is read, a writer that reads
// nothing (io.Discard, the program's own counting writer) leaves the
// buffer to other goroutines, and a hash reads a buffer filled before the
// goroutine started. An -hb build reports nothing.
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
)

// counter counts what is written to it and reads none of it.
type counter struct{ n int }

func (c *counter) Write(p []byte) (int, error) {
	c.n += len(p)
	return len(p), nil
}

func main() {
	buf := make([]byte, 16)
	done := make(chan bool)
	go func() {
		buf[12] = 'x' // past what the Read below writes
		done <- true
	}()
	n, _ := strings.NewReader("abcd").Read(buf)
	<-done
	fmt.Println(n, string(buf[:n]), buf[12])

	filled := make(chan []byte)
	go func() {
		b := make([]byte, 4)
		var r bytes.Buffer
		r.WriteString("wxyz")
		r.Read(b)
		filled <- b
	}()
	fmt.Println(string(<-filled))

	scratch := make([]byte, 8)
	var c counter
	go func() {
		scratch[0] = 1
		done <- true
	}()
	io.Discard.Write(scratch)
	var w io.Writer = &c
	w.Write(scratch)
	<-done
	fmt.Println(c.n)

	in := []byte("hash me")
	sums := make(chan [32]byte)
	go func() {
		h := sha256.New()
		h.Write(in)
		var s [32]byte
		copy(s[:], h.Sum(nil))
		sums <- s
	}()
	s := <-sums
	in[0] = 'H'
	fmt.Println(s[0] == sha256.Sum256([]byte("hash me"))[0])
}
