// sync.Once lazy init, sync.OnceValue and sync.OnceValues, read by many
// goroutines. Correct: go run -race is silent.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type config struct {
	name  string
	limit int
	tags  map[string]bool
}

var (
	cfgOnce sync.Once
	cfg     *config
)

func getConfig() *config {
	cfgOnce.Do(func() {
		c := &config{name: "svc", limit: 10, tags: map[string]bool{}}
		c.tags["a"] = true
		cfg = c
	})
	return cfg
}

var table = sync.OnceValue(func() []int {
	t := make([]int, 64)
	for i := range t {
		t[i] = i * i
	}
	return t
})

var parsed = sync.OnceValues(func() (map[string]int, error) {
	m := map[string]int{}
	for i, f := range strings.Fields("a b c d") {
		m[f] = i
	}
	return m, nil
})

type lazy struct {
	once sync.Once
	val  []string
}

func (l *lazy) get() []string {
	l.once.Do(l.init)
	return l.val
}

func (l *lazy) init() { l.val = []string{"x", "y"} }

func main() {
	var wg sync.WaitGroup
	var l lazy
	sums := make([]int, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := getConfig()
			s := c.limit + len(c.name)
			if c.tags["a"] {
				s++
			}
			s += table()[g]
			m, _ := parsed()
			s += m["c"]
			s += len(l.get())
			sums[g] = s
		}()
	}
	wg.Wait()
	fmt.Println(sums)
}
