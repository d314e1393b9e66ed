print("fbanim-bench: in progress")
