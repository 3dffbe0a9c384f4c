module example.com/goargs

go 1.25
