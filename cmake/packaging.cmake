# `cpack -G DEB` in a build directory makes spindle_<version>_amd64.deb from
# what `cmake --install` lays out under /usr. Binaries are stripped; the
# libraries they need become Depends through dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME spindle)
set(CPACK_PACKAGE_VENDOR "Spindle")
set(CPACK_PACKAGE_CONTACT "Spindle developers <spindle@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Distributed TensorFlow and PyTorch jobs on Hadoop YARN, with a desktop app")
set(CPACK_PACKAGE_DESCRIPTION
    "Spindle validates job specs, submits them to a Hadoop YARN cluster and follows them: every task's
container, logs, training scalars and TensorBoard. The spindle command line and the spindle-gui
desktop app share one job history. Jobs run from one static binary, spindle-container.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)
