// Command partialinst: go g[int](1, "zz", out), a generic function whose
// second type argument is inferred from the call. goanomaly run -hb
// rewrites it to Spawned3(GoAt(site), g[int])(…), which does not compile
// ("cannot infer B"): g[int] is not a value. go run: prints 8.
package main

import "fmt"

func g[T, U any](t T, u U, out chan int) { out <- len(fmt.Sprint(t, u)) }

func main() {
	out := make(chan int)
	go g[int](1, "zz", out)
	fmt.Println(<-out + 5)
}
