// _FBTestSupport: in progress
