# The Debian package (`cpack -G DEB` in the build folder): the program, the libraries with their
# headers and CMake package config, and the Python module in Debian's dist-packages, all under
# /usr, so that `apt install ./vibroimpact_*.deb` makes `vibroimpact` and `import vibroimpact`
# work with no PATH, LD_LIBRARY_PATH or PYTHONPATH set. The files find each other through
# $ORIGIN-relative RUNPATHs (CMakeLists.txt), so the tree also runs unpacked elsewhere
# (tests/install/check_deb.sh unpacks it into a scratch root).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vibroimpact)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "vibroimpact")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "finite elements for beams, rods and supports that hit obstacles (nonsmooth dynamics)")
set(CPACK_PACKAGE_DESCRIPTION
  "The vibroimpact command line, its C++ library (headers, CMake package config) and the Python module.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # vibroimpact_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "vibroimpact maintainers")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries' packages (deal.II, Siconos, Trilinos, ...) as dpkg-shlibdeps finds them;
# `cpack -D CPACK_DEBIAN_PACKAGE_SHLIBDEPS=OFF` skips that where only the contents matter.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# What no library link says: the interpreter the module was built for, with NumPy.
if(TARGET vibroimpact-python)
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), \
python3 (<< ${Python3_VERSION_MAJOR}.${next_minor}), python3-numpy")
endif()
# The headers the CMake package config names (find_package(vibroimpact) in a user's project).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libdeal.ii-dev, libeigen3-dev, python3-pandas, python3-matplotlib, gnuplot, paraview")
include(CPack)
