// FBImage: in progress
