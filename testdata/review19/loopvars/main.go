// Go 1.22 loop variables: each iteration's i and v are the goroutine's
// own (correct), except where the body itself writes i after starting the
// goroutine (a real race: go run -race reports it, the write of i at
// main.go:31 against the read in the goroutine at main.go:30).
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	res := make([]int, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); res[i] = i * i }()
	}
	names := []string{"a", "b", "c"}
	out := make([]string, 3)
	for i, v := range names {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = v + v }()
	}
	wg.Wait()
	var mu sync.Mutex
	seen := 0
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); mu.Lock(); seen += i; mu.Unlock() }()
		i++ // the goroutine's i, written while it may read it
	}
	wg.Wait()
	fmt.Println(res, out, seen > 0)
}
