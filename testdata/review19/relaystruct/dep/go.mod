module example.com/watch

go 1.26
