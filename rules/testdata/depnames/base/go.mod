module example.com/agent

go 1.22

require example.com/logutils v1.0.0
