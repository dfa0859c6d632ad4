# fuzz targets: estimator protocol
