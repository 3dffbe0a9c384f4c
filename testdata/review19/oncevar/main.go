// sync.OnceFunc and sync.OnceValues made in package variables' initializers
// (the common idiom). What the function does happens before every call of
// the returned function returns, so a goroutine that calls it after the
// first caller and reads what it wrote is ordered: go run -race is silent.
// goanomaly run -hb at 8f1699e reported a DATA RACE on every run (the map's
// write at main.go:28 against the read at main.go:49, cfg.port at main.go:24 against main.go:47):
// the literal passed to sync in a package variable's initializer was not
// marked a callback that publishes (instrument/rewrite/hb.go,
// hbCallbacksOf needed a task in scope, and a package variable's
// initializer has none), so it got no release to G when it returns, as
// the same literal inside a function gets (sound_hb_review12_oncefunc).
package main

import (
	"fmt"
	"sync"
	"time"
)

type config struct{ port int }

var cfg = &config{}

var load = sync.OnceFunc(func() { cfg.port = 8080 })

var parsed = sync.OnceValues(func() (map[string]int, error) {
	m := map[string]int{}
	m["c"] = 3
	return m, nil
})

func main() {
	quit := make(chan struct{})
	go func() {
		load()
		<-quit
	}()
	go func() {
		parsed()
		<-quit
	}()
	time.Sleep(20 * time.Millisecond)
	var got, c int
	done := make(chan struct{})
	go func() {
		load()
		got = cfg.port
		m, _ := parsed()
		c = m["c"]
		close(done)
	}()
	<-done
	close(quit)
	fmt.Println(got, c)
}
