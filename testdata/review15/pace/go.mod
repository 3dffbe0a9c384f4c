module pace

go 1.24
