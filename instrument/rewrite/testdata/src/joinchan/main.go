package main

import "fmt"

func main() {
	res := make([]int, 4)
	done := make(chan bool)
	for i := 0; i < len(res); i++ {
		go func() {
			res[i] = 10 * i
			done <- true
		}()
	}
	for range len(res) {
		<-done
	}
	fmt.Println(res)
}
