// FBLinux: in progress
