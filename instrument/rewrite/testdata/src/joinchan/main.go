package main

import "fmt"

func main() {
	res := make([]int, 4)
	perm := []int{2, 0, 3, 1} // through an index array: unchecked when perm holds no value twice, a run-time guard
	done := make(chan bool)
	for i := 0; i < len(res); i++ {
		go func() {
			res[perm[i]] = 10 * i
			done <- true
		}()
	}
	for range len(res) {
		<-done
	}
	fmt.Println(res)
}
