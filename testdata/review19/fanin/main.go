// Fan-in two ways: a reflect.Select over producer channels, and a merge
// goroutine per input into one output closed after a WaitGroup. Each
// item is a pointer to a struct the producer filled. Correct: go run
// -race is silent. goanomaly run -hb at 8f1699e reported the accesses of
// it.buf at main.go:64 and main.go:65 against the producer's write at
// main.go:25 on every run: reflect.ValueOf(produce(s, 20)) did not escape
// the channel (ValueOf is quiet and its argument no variable), so the
// receive inside reflect.Select followed no send. Fixed by hbEscapeArgs
// (instrument/rewrite/hb.go) and escapeObj (rt/hb_sync.go).
package main

import (
	"fmt"
	"reflect"
	"sync"
)

type item struct {
	src, n int
	buf    []byte
}

func produce(src, n int) <-chan *item {
	ch := make(chan *item)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			it := &item{src: src, n: i, buf: make([]byte, 16)}
			for k := range it.buf {
				it.buf[k] = byte(src + i + k)
			}
			ch <- it
		}
	}()
	return ch
}

func merge(ins ...<-chan *item) <-chan *item {
	out := make(chan *item, 2)
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range in {
				it.buf[0]++ // the merger owns it until it sends
				out <- it
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

func main() {
	var cases []reflect.SelectCase
	for s := 0; s < 4; s++ {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(produce(s, 20))})
	}
	total, open := 0, len(cases)
	for open > 0 {
		i, v, ok := reflect.Select(cases)
		if !ok {
			cases[i].Chan = reflect.ValueOf(nil)
			open--
			continue
		}
		it := v.Interface().(*item)
		it.buf[1] = 0
		total += int(it.buf[2]) + it.n
	}
	sum := 0
	for it := range merge(produce(10, 30), produce(20, 30), produce(30, 30)) {
		it.buf[3] = 1
		sum += int(it.buf[0]) + it.src
	}
	fmt.Println(total, sum)
}
