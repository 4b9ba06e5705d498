module example.com/amqp

go 1.22
